/**
 * Actions on an account another engine runs are passed to that engine as stored commands: the
 * request as it came (method, path, body, the caller's key), run there through the same routes and
 * services, and answered with the status and body the owner's API gave.
 */

export interface ForwardedRequest {
  method: string;
  url: string;
  /** The raw body, base64: it is replayed byte for byte. */
  body: string;
  headers: Record<string, string>;
}

export interface CommandAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface CommandForwarder {
  /**
   * Runs the request on the engine that holds the account (or takes it); answers undefined when
   * no live engine can run it, which the caller turns into a 503 it may retry.
   */
  forward(accountId: number, request: ForwardedRequest): Promise<CommandAnswer | undefined>;
  /** A request that is a command being run here: it must not be forwarded again. */
  isCommand(headers: Record<string, string | string[] | undefined>): boolean;
}

/** The header that marks a command replayed by the owning engine's own API (never from outside). */
export const COMMAND_HEADER = 'x-tradeloop-command';
/** Set on the answer of a command whose account turned out to be another engine's meanwhile. */
export const ELSEWHERE_HEADER = 'x-tradeloop-elsewhere';
