/** The engines that run automations on this database, for operators (GET /ext/engines). */

export interface EngineView {
  id: string;
  host: string;
  pid: number;
  role: string;
  startedAt: Date;
  lastSeenAt: Date;
  /** The exchange accounts whose automations it runs. */
  accountIds: number[];
}

export interface EngineRegistry {
  list(): Promise<EngineView[]>;
}

export class EnginesService {
  constructor(private readonly registry: EngineRegistry) {}

  list(): Promise<EngineView[]> {
    return this.registry.list();
  }
}
