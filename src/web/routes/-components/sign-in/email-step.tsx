import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { api } from '../../../api/client.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { fieldMessage } from '../../../components/field-message.ts';
import { TextField } from '../../../components/text-field.tsx';
import { lazyZodResolver } from './lazy-resolver.ts';
import { describeSignInError, type SignInProblem } from './sign-in-problem.ts';
import { useCountdown } from './use-countdown.ts';

export interface CodeSent {
  email: string;
  /** Seconds the code stays valid. */
  expiresIn: number;
}

interface EmailStepProps {
  defaultEmail: string;
  onCodeSent: (sent: CodeSent) => void;
}

/** The contract's rule for the address, loaded with zod once the person starts typing. */
const sendOtpResolver = lazyZodResolver(() =>
  import('../../../../contract/auth.ts').then((m) => m.SendOtpBody),
);

export function EmailStep({ defaultEmail, onCodeSent }: EmailStepProps) {
  const form = useForm({ resolver: sendOtpResolver, defaultValues: { email: defaultEmail } });
  const [problem, setProblem] = useState<SignInProblem | null>(null);
  const waitSeconds = useCountdown(problem?.retryAt ?? null);
  const { setFocus } = form;

  useEffect(() => {
    setFocus('email');
  }, [setFocus]);

  const onSubmit = form.handleSubmit(async (body) => {
    setProblem(null);
    try {
      const sent = await api().sendOtp({ body });
      onCodeSent({ email: body.email, expiresIn: sent.expires_in });
    } catch (error) {
      setProblem(describeSignInError(error));
    }
  });

  // The contract's rule says "must be an email address" of an empty field too; an empty one is asked for.
  const invalid = form.formState.errors.email;
  const emailError =
    invalid && form.getValues('email').trim() === ''
      ? 'Enter your email address.'
      : fieldMessage('Email', invalid?.message);

  return (
    <form onSubmit={onSubmit} onInput={sendOtpResolver.preload} noValidate className="flex flex-col gap-4">
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        error={emailError}
        {...form.register('email')}
      />
      {problem && <Alert tone="error">{problem.message}</Alert>}
      <Button type="submit" pending={form.formState.isSubmitting} disabled={waitSeconds > 0}>
        {waitSeconds > 0 ? `Try again in ${waitSeconds}s` : 'Email me a code'}
      </Button>
    </form>
  );
}
