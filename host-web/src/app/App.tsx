import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { SessionProvider } from '../session/SessionProvider.tsx';
import { NotificationsOnDemand } from './NotificationsOnDemand.tsx';
import { createRouter } from './routes.tsx';
import type { AppServices } from './services.ts';
import { cssVariablesResolver, theme } from './theme.ts';
import { colorSchemeManager } from './color-scheme.ts';
import { ThemeFromUser } from './ThemeFromUser.tsx';

export function App({ services }: { services: AppServices }) {
  const [router] = useState(createRouter);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <NotificationsOnDemand position="top-right" limit={3} />
      <SessionProvider services={services}>
        <ThemeFromUser />
        <RouterProvider router={router} />
      </SessionProvider>
    </MantineProvider>
  );
}
