import { can, canAny, PERMISSIONS, Principal, purchasesChangeRefusal } from '../../../src/users/permissions';

const owner: Principal = { isOwner: true, permissions: [] };
const keys: Principal = { isOwner: false, permissions: ['manage_api_keys'] };
const billing: Principal = { isOwner: false, permissions: ['manage_billing'] };
const both: Principal = { isOwner: false, permissions: ['manage_api_keys', 'manage_billing'] };
const settings: Principal = { isOwner: false, permissions: ['manage_settings', 'manage_senders'] };
const nobody: Principal = { isOwner: false, permissions: [] };

describe('permissions', () => {
  it('give the owner every permission and others exactly theirs', () => {
    for (const p of PERMISSIONS) expect(can(owner, p)).toBe(true);
    expect(PERMISSIONS.filter((p) => can(keys, p))).toEqual(['manage_api_keys']);
    expect(PERMISSIONS.filter((p) => can(nobody, p))).toEqual([]);
    expect(canAny(settings, ['manage_api_keys', 'manage_billing'])).toBe(false);
    expect(canAny(billing, ['manage_api_keys', 'manage_billing'])).toBe(true);
  });
});

describe(purchasesChangeRefusal.name, () => {
  const off500 = { enabled: false, dailyLimitCents: 50_000 };
  const on500 = { enabled: true, dailyLimitCents: 50_000 };
  // Interface, Authentication 7: billing enables and raises; API-key managers disable and lower.
  it.each([
    ['enable', off500, on500, { owner: null, billing: null, both: null, keys: 'purchasesEnableNeedsBilling', settings: 'permissionRequired', nobody: 'permissionRequired' }],
    ['disable', on500, off500, { owner: null, billing: null, both: null, keys: null, settings: 'permissionRequired', nobody: 'permissionRequired' }],
    [
      'raise',
      on500,
      { enabled: true, dailyLimitCents: 50_001 },
      { owner: null, billing: null, both: null, keys: 'dailyLimitRaiseNeedsBilling', settings: 'permissionRequired', nobody: 'permissionRequired' },
    ],
    [
      'lower',
      on500,
      { enabled: true, dailyLimitCents: 49_999 },
      { owner: null, billing: null, both: null, keys: null, settings: 'permissionRequired', nobody: 'permissionRequired' },
    ],
    [
      'disable and lower',
      on500,
      { enabled: false, dailyLimitCents: 100 },
      { owner: null, billing: null, both: null, keys: null, settings: 'permissionRequired', nobody: 'permissionRequired' },
    ],
    [
      'disable but raise',
      on500,
      { enabled: false, dailyLimitCents: 90_000 },
      { owner: null, billing: null, both: null, keys: 'dailyLimitRaiseNeedsBilling', settings: 'permissionRequired', nobody: 'permissionRequired' },
    ],
    ['nothing', on500, on500, { owner: null, billing: null, both: null, keys: null, settings: 'permissionRequired', nobody: 'permissionRequired' }],
  ])('%s: refusal by role', (_, before, after, expected) => {
    const principals = { owner, billing, both, keys, settings, nobody };
    const actual = Object.fromEntries(Object.entries(principals).map(([name, p]) => [name, purchasesChangeRefusal(p, before, after)]));
    expect(actual).toEqual(expected);
  });
});
