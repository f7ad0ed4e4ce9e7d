/*
 * What the app lends plugin web parts, loaded only when the first plugin remote is: React,
 * react-dom, the router and the SDK's web part, the app's own copies (singletons, so hooks and
 * contexts work across the boundary). Nothing here is in the first page's scripts.
 */
import * as sdkWeb from '@fieldbook/extensions-sdk/web';
import React from 'react';
import ReactDOM from 'react-dom';
import * as jsxRuntime from 'react/jsx-runtime';
import {
  Link,
  NavLink,
  Navigate,
  Outlet,
  RouterProvider,
  createBrowserRouter,
  createSearchParams,
  generatePath,
  isRouteErrorResponse,
  matchPath,
  useBlocker,
  useHref,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useNavigation,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRouteError,
  useSearchParams,
} from 'react-router';

/**
 * The router API a plugin's web part may use: the browser router's components and hooks. Named
 * one by one so the app's build keeps only these of the package (it is 3 times larger, with
 * server rendering and data APIs the app does not use).
 */
const router = {
  Link,
  NavLink,
  Navigate,
  Outlet,
  RouterProvider,
  createBrowserRouter,
  createSearchParams,
  generatePath,
  isRouteErrorResponse,
  matchPath,
  useBlocker,
  useHref,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useNavigation,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRouteError,
  useSearchParams,
};

/** Versions as the app was built with them (see `source.define` in rsbuild.config.ts). */
declare const FIELDBOOK_SHARED_VERSIONS: Record<'react' | 'react-dom' | 'react-router' | 'sdk', string>;

export interface SharedModule {
  version: string;
  lib: () => unknown;
  shareConfig: { singleton: true; requiredVersion: string };
}

const entry = (version: string, lib: unknown): SharedModule => ({
  version,
  lib: () => lib,
  shareConfig: { singleton: true, requiredVersion: `^${version}` },
});

const v = FIELDBOOK_SHARED_VERSIONS;
export const sharedModules: Record<string, SharedModule> = {
  react: entry(v.react, React),
  'react/jsx-runtime': entry(v.react, jsxRuntime),
  'react-dom': entry(v['react-dom'], ReactDOM),
  'react-router': entry(v['react-router'], router),
  '@fieldbook/extensions-sdk/web': entry(v.sdk, sdkWeb),
};
