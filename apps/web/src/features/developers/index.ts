export { DevelopersPage } from './DevelopersPage';
