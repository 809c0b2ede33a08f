import { defineRoute } from '../../route.ts';

export const systemRoutes = (now: () => Date) => [
  defineRoute({
    method: 'GET',
    url: '/ver1/ping',
    summary: 'Test connectivity',
    tags: ['system'],
    handler: () => ({ pong: 'pong' }),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/time',
    summary: 'Server time in Unix seconds',
    tags: ['system'],
    handler: () => ({ server_time: Math.floor(now().getTime() / 1000) }),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/validate',
    summary: 'Check that the API key and the signature are valid',
    tags: ['system'],
    handler: () => ({ valid: true }),
  }),
];
