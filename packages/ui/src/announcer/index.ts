export { Announcer, useAnnounce } from './Announcer.tsx';
