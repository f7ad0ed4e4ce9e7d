// The app starts at once: plugin remotes are loaded by the federation runtime on demand
// (extensions/remotes.ts), so no asynchronous boundary is needed before the app's own code.
import './bootstrap.tsx';
