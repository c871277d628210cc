import { describe, expect, it } from 'vitest';
import { AUDIT_MASK, changedKeys, isSecretKey, maskSecrets } from './audit.schema.ts';
import { markedSecretKeys } from './secret-fields.ts';
// The schemas that mark secret fields.
import './account.schema.ts';
import './hj212.schema.ts';
import './notify.schema.ts';
import './sim.schema.ts';
import './video.schema.ts';

describe('the audit trail’s masking of secrets', () => {
  it('masks every secret the issue names, at any depth, keeping empty ones empty and everything else', () => {
    const record = {
      Account: 'operator',
      Password: 'Secret12345',
      PasswordAgain: 'Secret12345',
      OldPassword: 'Old12345',
      password_hash: '$argon2id$v=19$…',
      PasswordHash: '$argon2id$v=19$…',
      Secret: 'webhook-signing-secret',
      SecretHash: 'ab12',
      Token: 'session-token',
      AccessToken: 'ezviz-token',
      accessToken: 'ezviz-token',
      SimPassword: 'sim-pass',
      AppSecret: 'sim-app-secret',
      SecurityCode: 'ABCDEF',
      Appkey: 'ezviz-app-key',
      Credential: { Username: 'SL0001', Password: 'device-secret' },
      Cameras: [{ VideoName: 'Inlet', Secret: 's' }],
      Hj212: { Mn: 'MN1', PW: '123456' },
      Empty: { Password: '' },
      Name: 'Pump house',
      Passed: true,
      Compass: 'north',
    };
    expect(maskSecrets(record)).toEqual({
      Account: 'operator',
      Password: AUDIT_MASK,
      PasswordAgain: AUDIT_MASK,
      OldPassword: AUDIT_MASK,
      password_hash: AUDIT_MASK,
      PasswordHash: AUDIT_MASK,
      Secret: AUDIT_MASK,
      SecretHash: AUDIT_MASK,
      Token: AUDIT_MASK,
      AccessToken: AUDIT_MASK,
      accessToken: AUDIT_MASK,
      SimPassword: AUDIT_MASK,
      AppSecret: AUDIT_MASK,
      SecurityCode: AUDIT_MASK,
      Appkey: AUDIT_MASK,
      Credential: { Username: 'SL0001', Password: AUDIT_MASK },
      Cameras: [{ VideoName: 'Inlet', Secret: AUDIT_MASK }],
      Hj212: { Mn: 'MN1', PW: AUDIT_MASK },
      Empty: { Password: '' },
      Name: 'Pump house',
      Passed: true,
      Compass: 'north',
    });
  });

  it('masks every field the schemas mark secret', () => {
    const marked = markedSecretKeys();
    expect(marked).toEqual(
      expect.arrayContaining([
        'Password',
        'PasswordAgain',
        'OldPassword',
        'SimPassword',
        'AppSecret',
        'SecurityCode',
        'Appkey',
        'Secret',
      ]),
    );
    expect(marked.filter((key) => !isSecretKey(key))).toEqual([]);
  });

  it('tells which keys changed, comparing before masking', () => {
    expect(
      changedKeys({ Name: 'A', Password: 'x', Roles: ['Operator'] }, { Name: 'A', Password: 'y', Roles: ['Engineers'] }),
    ).toEqual(['Password', 'Roles']);
    expect(changedKeys(null, { Name: 'A' })).toEqual(['Name']);
    expect(changedKeys({ Name: 'A' }, null)).toEqual(['Name']);
    expect(changedKeys({ Name: 'A' }, { Name: 'A' })).toEqual([]);
  });
});
