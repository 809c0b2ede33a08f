/** The OpenAPI document is generated from the route schemas; /docs renders it for people. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Tradeloop API',
        description:
          'Self-hosted trading automation with a 3Commas-compatible API. Signed routes need the ' +
          'Apikey and Signature headers (HMAC-SHA256 hex or RSA-SHA256 Base64).',
        version,
      },
      components: {
        securitySchemes: {
          Apikey: { type: 'apiKey', in: 'header', name: 'Apikey' },
          Signature: { type: 'apiKey', in: 'header', name: 'Signature' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
