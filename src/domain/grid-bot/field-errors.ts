/** Field errors collected while reading a body: each field keeps its distinct messages in order. */
import type { FieldErrors } from '../../shared/errors.ts';

export class Errors {
  readonly collected: FieldErrors = {};

  add(field: string, message: string): void {
    const messages = (this.collected[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }

  get isEmpty(): boolean {
    return Object.keys(this.collected).length === 0;
  }
}
