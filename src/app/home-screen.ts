// The screen most visits open on. main.tsx asks for this module alongside the boot, and the route
// table loads the same module, so both name one chunk and the entry need not reach into features/.
export { default } from '../features/home/HomeScreen';
