import type { ButtonHTMLAttributes } from 'react';
import { cx } from './cx.ts';
import { Spinner } from './spinner.tsx';

const VARIANTS = {
  primary:
    'bg-zinc-900 text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-white shadow-sm',
  secondary:
    'bg-white text-zinc-900 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700 dark:hover:bg-zinc-800 shadow-sm',
  ghost: 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
  /** A quiet destructive action in a row (revoke, remove, withdraw). */
  'danger-ghost': 'text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/40',
  danger: 'bg-red-600 text-white hover:bg-red-500 shadow-sm',
} as const;

const SIZES = {
  sm: 'h-8 px-3 text-sm gap-1.5',
  md: 'h-10 px-4 text-sm gap-2',
} as const;

export function buttonClasses(
  variant: keyof typeof VARIANTS = 'primary',
  size: keyof typeof SIZES = 'md',
): string {
  return cx(
    'inline-flex items-center justify-center rounded-lg font-medium transition-colors',
    'disabled:cursor-not-allowed disabled:opacity-50',
    VARIANTS[variant],
    SIZES[size],
  );
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  /** Shows a spinner and disables the button while an action runs. */
  pending?: boolean;
}

export function Button({
  variant,
  size,
  pending = false,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cx(buttonClasses(variant, size), className)}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      {...rest}
    >
      {pending && <Spinner />}
      {children}
    </button>
  );
}
