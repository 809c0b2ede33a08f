/**
 * What `probe` finds, asked again every `pollMs` until it finds something; fails naming `what`
 * after `deadlineMs`, which only catches a hang (real servers under load take their time).
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 120_000, pollMs = 100): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
