import type { WebNavItem, WebRoute } from '@fieldbook/extensions-sdk/web';
import { createElement, lazy } from 'react';

// The editor (TipTap, ProseMirror) loads only with the pages that show a document.
const DocumentRoute = lazy(() => import('./DocumentPage.tsx').then((m) => ({ default: m.DocumentRoute })));
const EmbedHighlightPage = lazy(() =>
  import('./public/EmbedHighlightPage.tsx').then((m) => ({ default: m.EmbedHighlightPage })),
);
const PublicSharePage = lazy(() => import('./public/PublicPage.tsx').then((m) => ({ default: m.PublicSharePage })));

const NotePage = () => createElement(DocumentRoute, { kind: 'note' });
const InsightPage = () => createElement(DocumentRoute, { kind: 'insight' });

/** The note and insight pages, and the pages public links and embed codes open. */
export const documentRoutes: readonly WebRoute[] = [
  { path: '/data/:noteId', component: NotePage, permission: 'notes:read' },
  { path: '/projects/:projectId/view/:noteId', component: NotePage, permission: 'notes:read' },
  { path: '/insights/:insightId', component: InsightPage, permission: 'insights:read' },
  { path: '/p/:shareToken', component: PublicSharePage, public: true },
  { path: '/public-object/:shareToken', component: PublicSharePage, public: true },
  { path: '/embed/highlights/:highlightId', component: EmbedHighlightPage, public: true },
];

export const documentNavigation: readonly WebNavItem[] = [];
