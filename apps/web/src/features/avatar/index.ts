// What other features use of the Avatar tool: the presenter picker and product in hand (link to video's quick editor
// puts a presenter on camera with them: decisions "Presenter in link to video", "Product in hand").
export { HoldProduct } from './HoldProduct';
export { type PresenterChoice, PresenterPicker } from './PresenterPicker';
export { usePresenters } from './presentersApi';
