import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { SectionLoader } from '../common/Loading.tsx';
import { ExtensionsProvider } from '../extensions/ExtensionsProvider.tsx';
import { WorkspaceLayout } from './WorkspaceLayout.tsx';

/**
 * The workspace app around a page: extensions, header and sidebar. Module pages are lazy
 * components, so the page area waits for its code while the shell stays drawn.
 */
export function WorkspaceShell({ children }: { children?: ReactNode }) {
  return (
    <ExtensionsProvider>
      <WorkspaceLayout>
        <Suspense fallback={<SectionLoader label="Loading the page…" />}>{children ?? <Outlet />}</Suspense>
      </WorkspaceLayout>
    </ExtensionsProvider>
  );
}
