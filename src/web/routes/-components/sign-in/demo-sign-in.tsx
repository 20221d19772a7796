import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../api/client.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { devDemoQueryOptions } from '../../../queries/dev-demo.ts';
import type { SignedIn } from './code-step.tsx';
import { describeSignInError } from './sign-in-problem.ts';

/** The real sign-in, done for the person: ask for a code, read it from the dev mailbox, verify it. */
async function signInAsDemo(email: string): Promise<SignedIn> {
  await api().sendOtp({ body: { email } });
  const { data } = await api().devMailbox({ query: { to: email } });
  // Newest first: the code just asked for (asking again replaces an older one).
  const code = data.find((message) => message.code)?.code;
  if (!code) throw new Error('The sign-in code did not reach the dev mailbox. Try again.');
  return api().verifyOtp({ body: { email, code } });
}

/**
 * One click into the demo history on a development server. Shown only when the server keeps a dev
 * mailbox (no SMTP) and has the seeded demo team; otherwise, or while it is asked, nothing.
 */
export function DemoSignIn({ onSignedIn }: { onSignedIn: (result: SignedIn) => void | Promise<void> }) {
  const demo = useQuery(devDemoQueryOptions());
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!demo.data) return null;
  const { email } = demo.data;

  async function explore() {
    setPending(true);
    setProblem(null);
    try {
      await onSignedIn(await signInAsDemo(email));
    } catch (error) {
      setProblem(describeSignInError(error).message);
      setPending(false);
    }
  }

  return (
    <section
      aria-label="Demo data"
      className="mt-4 rounded-2xl border border-zinc-200 bg-white p-5 text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p className="text-zinc-600 dark:text-zinc-400">
        This development server has demo data: 13 months of spend for the Demo Studio team. Sign in as{' '}
        <span className="font-mono text-zinc-900 dark:text-zinc-100">{email}</span> in one click.
      </p>
      {problem && (
        <Alert tone="error" className="mt-3">
          {problem}
        </Alert>
      )}
      <Button variant="secondary" className="mt-3 w-full" pending={pending} onClick={() => void explore()}>
        Explore the demo data
      </Button>
    </section>
  );
}
