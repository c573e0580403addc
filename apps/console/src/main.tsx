import '@gatehouse/ui/styles.css';
import { start } from './start.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('Gatehouse Console: #root is missing from index.html');
void start(root);
