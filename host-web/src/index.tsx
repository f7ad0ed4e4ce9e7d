// Module Federation shares modules asynchronously: everything else loads after this boundary.
import('./bootstrap.tsx');
