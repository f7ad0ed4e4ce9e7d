/** The part of whatwg-url the isolate uses; the classes match the platform's. */
declare module 'whatwg-url' {
  export const URL: typeof globalThis.URL;
  export const URLSearchParams: typeof globalThis.URLSearchParams;
}
