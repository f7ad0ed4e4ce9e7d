import { Client } from 'typesense';

export interface TypesenseSettings {
  url: string;
  apiKey: string;
}

/** A Typesense client for one server; the key travels in the `X-TYPESENSE-API-KEY` header. */
export function typesenseClient(settings: TypesenseSettings): Client {
  return new Client({
    nodes: [{ url: settings.url.replace(/\/+$/, '') }],
    apiKey: settings.apiKey,
    sendApiKeyAsQueryParam: false,
    connectionTimeoutSeconds: 10,
    numRetries: 2,
    retryIntervalSeconds: 0.2,
    logLevel: 'silent',
  });
}
