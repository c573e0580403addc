/** The device app's pages off the start page, behind one dynamic import. */
export { AddAccountPage } from './add/AddAccountPage.tsx';
