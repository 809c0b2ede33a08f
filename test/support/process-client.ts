/** Signed calls in paper mode to a server process on a loopback port, as the end-to-end tests make them. */
import { signPayload, type Credentials } from './signing.ts';

export type ProcessKey = Credentials & { apiKey: string };

export interface ProcessAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export async function callProcess(port: number, key: ProcessKey, method: string, route: string, body?: unknown): Promise<ProcessAnswer> {
  const pathWithQuery = `/public/api${route}`;
  const text = body === undefined ? '' : JSON.stringify(body);
  const response = await fetch(`http://127.0.0.1:${port}${pathWithQuery}`, {
    method,
    headers: {
      APIKEY: key.apiKey,
      Signature: signPayload(key, pathWithQuery + text),
      'Forced-Mode': 'paper',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: text }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** One key's calls to one server process. */
export class ProcessClient {
  constructor(
    private readonly port: number,
    private readonly key: ProcessKey,
  ) {}

  call(method: string, route: string, body?: unknown): Promise<ProcessAnswer> {
    return callProcess(this.port, this.key, method, route, body);
  }
}
