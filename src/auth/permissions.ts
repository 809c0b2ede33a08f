/** Permissions an API key can hold: the reference service's set plus ADMIN for extension endpoints. */
export const PERMISSIONS = [
  'NONE',
  'BOTS_READ',
  'BOTS_WRITE',
  'ACCOUNTS_READ',
  'ACCOUNTS_WRITE',
  'SMART_TRADES_READ',
  'SMART_TRADES_WRITE',
  'ADMIN',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** Legacy reference pages spell the smart-trade permissions without the S; both mean the same. */
const ALIASES = new Map<string, Permission>([
  ['SMART_TRADE_READ', 'SMART_TRADES_READ'],
  ['SMART_TRADE_WRITE', 'SMART_TRADES_WRITE'],
]);

export function parsePermission(text: string): Permission | undefined {
  const upper = text.trim().toUpperCase();
  if ((PERMISSIONS as readonly string[]).includes(upper)) return upper as Permission;
  return ALIASES.get(upper);
}

/** Every key holds NONE implicitly; the rest must have been granted. */
export function hasPermission(granted: readonly Permission[], required: Permission): boolean {
  return required === 'NONE' || granted.includes(required);
}

/** Splits names (an array or one comma-separated string) into known permissions and unknown names. */
export function parsePermissionList(raw: string | readonly string[]) {
  const names = (typeof raw === 'string' ? raw.split(',') : raw).filter((n) => n.trim() !== '');
  const permissions: Permission[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const permission = parsePermission(name);
    if (permission === undefined) unknown.push(name);
    else permissions.push(permission);
  }
  return { permissions, unknown };
}
