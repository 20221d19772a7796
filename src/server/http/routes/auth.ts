import { devDemo, devMailbox, OTP_TTL_SECONDS, sendOtp, signOut, verifyOtp } from '../../../contract/auth.ts';
import { findDemoOwnerEmail } from '../../domain/analytics/demo-account.ts';
import { recordFailedSignIn } from '../../domain/audit/failed-sign-in.ts';
import { signInByEmail } from '../../domain/identity/accounts.ts';
import { consumeCode, issueCode } from '../../domain/identity/otp.ts';
import { bucketName, hit } from '../../domain/rate-limit.ts';
import { AppError } from '../../errors.ts';
import { readDevMailbox } from '../../mail/mailer.ts';
import type { Services } from '../../services.ts';
import { auditRequestInfo } from '../audit-request.ts';
import { clientAddress } from '../client-address.ts';
import { defineRoute, reply } from '../define-route.ts';
import { devMailboxRefusal } from '../dev-mailbox-access.ts';
import { requestHeader } from '../request-header.ts';

/**
 * Sign-in limits: per email stops mail-bombing one inbox, per address stops one client spraying many
 * (its size is SIGN_IN_CODES_PER_ADDRESS, since many people can share one address).
 */
export function signInLimits(codesPerAddress: number) {
  return {
    sendPerEmail: { label: 'sign-in codes for this email', limit: 5, windowSeconds: 900 },
    sendPerAddress: { label: 'sign-in codes from this address', limit: codesPerAddress, windowSeconds: 900 },
    verifyPerAddress: {
      label: 'sign-in attempts from this address',
      limit: codesPerAddress * 2,
      windowSeconds: 900,
    },
  } as const;
}

function codeMail(code: string, publicUrl: string) {
  return {
    subject: `Your Media Console sign-in code: ${code}`,
    text: [
      `Your sign-in code is ${code}.`,
      '',
      `It works once and expires in ${OTP_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this email.`,
      '',
      publicUrl,
    ].join('\n'),
  };
}

export function authRoutes(s: Services) {
  const limits = signInLimits(s.config.SIGN_IN_CODES_PER_ADDRESS);
  return [
    defineRoute(sendOtp, async ({ body, c }) => {
      const address = clientAddress(c, s.config.TRUST_PROXY);
      await hit(s.db, bucketName('otp-send-address', address), limits.sendPerAddress);
      await hit(s.db, bucketName('otp-send-email', body.email), limits.sendPerEmail);
      const code = await issueCode(s.db, s.keys.hashing, body.email);
      try {
        await s.mailer.send({ to: body.email, code, ...codeMail(code, s.config.PUBLIC_URL) });
      } catch (error) {
        s.log.error('sign-in mail not sent', { error: String(error) });
        throw new AppError(
          'service_unavailable',
          'The sign-in email could not be sent. Try again in a moment.',
        );
      }
      // The same answer whether or not the address has an account.
      return {
        sent: true as const,
        expires_in: OTP_TTL_SECONDS,
        message: 'If the address can receive email, a 6-digit code is on its way.',
      };
    }),

    defineRoute(verifyOtp, async ({ body, c }) => {
      const address = clientAddress(c, s.config.TRUST_PROXY);
      await hit(s.db, bucketName('otp-verify-address', address), limits.verifyPerAddress);
      const request = auditRequestInfo(c, s.config.TRUST_PROXY);
      await consumeCode(s.db, s.keys.hashing, body.email, body.code).catch(async (error: unknown) => {
        if (error instanceof AppError) await recordFailedSignIn(s.db, body.email, request, error.code);
        throw error;
      });
      const account = await signInByEmail(s.db, body.email, {
        signupCredits: s.config.SIGNUP_CREDITS,
        encryptionKey: s.keys.encryption,
        request,
      });
      const session = await s.sessions.issue(account.person.id, {
        userAgent: requestHeader(c, 'user-agent') ?? null,
        clientAddress: address,
      });
      s.log.info(account.created ? 'account created' : 'signed in', { person_id: account.person.id });
      return {
        api_key: account.apiKey,
        email: account.person.email,
        balance_cents: account.personalTeam.balance_cents,
        access_token: session.token,
        token_type: 'Bearer' as const,
        expires_at: session.expiresAt.toISOString(),
      };
    }),

    defineRoute(signOut, async ({ auth }) => {
      if (auth.sessionId) await s.sessions.revoke(auth.sessionId);
      return reply(204, undefined);
    }),

    defineRoute(devMailbox, async ({ query, c }) => {
      const refusal = devMailboxRefusal(s, c);
      if (refusal) throw new AppError('not_found', refusal);
      return { data: await readDevMailbox(s.db, query.to) };
    }),

    // The demo is signed into through the dev mailbox, so it is offered only to whom that mailbox answers.
    defineRoute(devDemo, async ({ c }) => {
      const refusal = devMailboxRefusal(s, c);
      if (refusal) throw new AppError('not_found', `There is no demo sign-in here. ${refusal}`);
      return { email: (await findDemoOwnerEmail(s.db)) ?? null };
    }),
  ];
}
