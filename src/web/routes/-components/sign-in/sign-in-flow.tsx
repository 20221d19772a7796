import { type ReactNode, useState } from 'react';
import { CodeStep, type SignedIn } from './code-step.tsx';
import { type CodeSent, EmailStep } from './email-step.tsx';

interface SignInFlowProps {
  onSignedIn: (result: SignedIn) => void | Promise<void>;
}

function StepHeading({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-xl font-semibold tracking-tight text-zinc-950 dark:text-white">{title}</h1>
      <p className="mt-1.5 text-sm text-zinc-600 dark:text-zinc-400">{children}</p>
    </div>
  );
}

/** Email, then the emailed code. Going back keeps the address typed so far. */
export function SignInFlow({ onSignedIn }: SignInFlowProps) {
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [lastEmail, setLastEmail] = useState('');

  if (!sent) {
    return (
      <>
        <StepHeading title="Sign in to Media Console">
          We will email you a 6-digit code. New here? The same code creates your account.
        </StepHeading>
        <EmailStep
          defaultEmail={lastEmail}
          onCodeSent={(next) => {
            setLastEmail(next.email);
            setSent(next);
          }}
        />
      </>
    );
  }
  return (
    <>
      <StepHeading title="Check your email">Enter the code to finish signing in.</StepHeading>
      <CodeStep
        key={sent.email}
        email={sent.email}
        expiresIn={sent.expiresIn}
        onSignedIn={onSignedIn}
        onUseAnotherEmail={() => setSent(null)}
      />
    </>
  );
}
