import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { SessionProvider } from '../session/SessionProvider.tsx';
import { createRouter } from './routes.tsx';
import type { AppServices } from './services.ts';
import { cssVariablesResolver, theme } from './theme.ts';

export function App({ services }: { services: AppServices }) {
  const [router] = useState(createRouter);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications position="top-right" limit={3} />
      <SessionProvider services={services}>
        <RouterProvider router={router} />
      </SessionProvider>
    </MantineProvider>
  );
}
