/** URL and URLSearchParams from the reference implementation (it needs TextEncoder: globals first). */
import { URL, URLSearchParams } from 'whatwg-url';

const scope = globalThis as unknown as Record<string, unknown>;
scope.URL = URL;
scope.URLSearchParams = URLSearchParams;
