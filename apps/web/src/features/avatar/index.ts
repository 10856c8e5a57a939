// What other features use of the Avatar tool: choosing a presenter and product in hand (link to video's editors
// put a presenter on camera with them: decisions "Presenter in link to video", "Product in hand").
export { HoldProduct } from './HoldProduct';
export { PresenterField } from './PresenterField';
export { usePresenters } from './presentersApi';
