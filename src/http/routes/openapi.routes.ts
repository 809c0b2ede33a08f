import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../route.ts';

export const openApiRoutes = (app: FastifyInstance) => [
  defineRoute({
    method: 'GET',
    url: '/openapi.json',
    summary: 'This API as an OpenAPI 3 document',
    tags: ['system'],
    handler: () => app.swagger(),
  }),
];
