import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { VerifyOtpResponse } from '../../../../contract/auth.ts';
import { api } from '../../../api/client.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { fieldMessage } from '../../../components/field-message.ts';
import { TextField } from '../../../components/text-field.tsx';
import { devMailboxKeys } from '../../../queries/dev-mailbox.ts';
import { DevMailboxPanel } from './dev-mailbox-panel.tsx';
import { lazyZodResolver } from './lazy-resolver.ts';
import { describeSignInError, type SignInProblem } from './sign-in-problem.ts';
import { useCountdown } from './use-countdown.ts';

/** The contract's OTP_LENGTH (spec 4.12), here so that typing a code needs no zod; a test keeps them equal. */
export const OTP_LENGTH = 6;

/** The contract's rule for the code and address (the email step has loaded it by now). */
const verifyOtpResolver = lazyZodResolver(() =>
  import('../../../../contract/auth.ts').then((m) => m.VerifyOtpBody),
);

export type SignedIn = z.output<typeof VerifyOtpResponse>;

interface CodeStepProps {
  email: string;
  expiresIn: number;
  onSignedIn: (result: SignedIn) => void | Promise<void>;
  onUseAnotherEmail: () => void;
}

/** Keeps the digits of whatever was typed or pasted ("123 456", "Code: 123-456"), at most six. */
export function normalizeCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

export function CodeStep({ email, expiresIn, onSignedIn, onUseAnotherEmail }: CodeStepProps) {
  const queryClient = useQueryClient();
  const form = useForm({ resolver: verifyOtpResolver, defaultValues: { email, code: '' } });
  const [problem, setProblem] = useState<SignInProblem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const waitSeconds = useCountdown(problem?.retryAt ?? null);
  const { setFocus, setValue } = form;
  const problemId = useId();

  useEffect(() => {
    setFocus('code');
    verifyOtpResolver.preload();
  }, [setFocus]);

  const onSubmit = form.handleSubmit(async (body) => {
    setProblem(null);
    setNotice(null);
    try {
      const result = await api().verifyOtp({ body });
      await onSignedIn(result);
    } catch (error) {
      setProblem(describeSignInError(error));
      setFocus('code', { shouldSelect: true });
    }
  });

  async function resend() {
    setProblem(null);
    setNotice(null);
    setResending(true);
    try {
      await api().sendOtp({ body: { email } });
      setValue('code', '');
      setNotice(`We sent a new code to ${email}. Earlier codes no longer work.`);
      await queryClient.invalidateQueries({ queryKey: devMailboxKeys.to(email) });
      setFocus('code');
    } catch (error) {
      setProblem(describeSignInError(error));
    } finally {
      setResending(false);
    }
  }

  const codeField = form.register('code');
  const onCodeChange = (event: ChangeEvent<HTMLInputElement>) => {
    event.target.value = normalizeCode(event.target.value);
    // A refusal of the code is about the code that was sent, not the one being typed.
    if (problem?.aboutCode) setProblem(null);
    return codeField.onChange(event);
  };
  const minutes = Math.max(1, Math.round(expiresIn / 60));

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        We sent a {OTP_LENGTH}-digit code to{' '}
        <strong className="font-medium text-zinc-900 dark:text-zinc-100">{email}</strong>. It works for{' '}
        {minutes} {minutes === 1 ? 'minute' : 'minutes'}.
      </p>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          spellCheck={false}
          placeholder="123456"
          className="[&_input]:font-mono [&_input]:text-lg [&_input]:tracking-[0.4em]"
          error={fieldMessage('The code', form.formState.errors.code?.message)}
          refusedBy={problem?.aboutCode ? problemId : undefined}
          {...codeField}
          onChange={onCodeChange}
        />
        {problem && (
          <Alert tone="error" id={problemId}>
            {problem.message}
          </Alert>
        )}
        {notice && <Alert tone="success">{notice}</Alert>}
        <Button type="submit" pending={form.formState.isSubmitting} disabled={waitSeconds > 0}>
          {waitSeconds > 0 ? `Try again in ${waitSeconds}s` : 'Sign in'}
        </Button>
      </form>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="ghost" size="sm" onClick={resend} pending={resending} disabled={waitSeconds > 0}>
          Resend code
        </Button>
        <Button variant="ghost" size="sm" onClick={onUseAnotherEmail}>
          Use another email
        </Button>
      </div>
      <DevMailboxPanel
        email={email}
        onUseCode={(code) => {
          // Taking a code from the mailbox means signing in with it: no stale refusal left beside it.
          setValue('code', normalizeCode(code));
          void onSubmit();
        }}
      />
    </div>
  );
}
