// What other features use of the Avatar tool: the presenter picker (link to video's quick editor puts a presenter on
// camera with it: decision "Presenter in link to video").
export { type PresenterChoice, PresenterPicker } from './PresenterPicker';
export { usePresenters } from './presentersApi';
