/** Operator endpoint (ADMIN): which engines run, and which exchange accounts each one runs. */
import type { EnginesService } from '../../../services/engines.service.ts';
import { presentEngine } from '../../presenters/engine.presenter.ts';
import { defineRoute } from '../../route.ts';

export const engineRoutes = (engines: EnginesService) => [
  defineRoute({
    method: 'GET',
    url: '/ext/engines',
    summary: 'List the engines sharing this database, with the accounts each one runs',
    tags: ['ext'],
    handler: async () => (await engines.list()).map(presentEngine),
  }),
];
