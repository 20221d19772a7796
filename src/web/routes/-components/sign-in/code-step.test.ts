import { describe, expect, it } from 'vitest';
import { OTP_LENGTH as CONTRACT_OTP_LENGTH } from '../../../../contract/auth.ts';
import { normalizeCode, OTP_LENGTH } from './code-step.tsx';

describe('the code step without the contract loaded', () => {
  it('keeps as many digits as the contract says a code has', () => {
    expect(OTP_LENGTH).toBe(CONTRACT_OTP_LENGTH);
    expect(normalizeCode('Code: 123-456 789')).toBe('123456789'.slice(0, CONTRACT_OTP_LENGTH));
  });
});
