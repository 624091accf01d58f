import type { ButtonHTMLAttributes } from 'react';

import { cn } from '@/lib/utils';

import { buttonClasses, type ButtonSize, type ButtonVariant } from './button-classes';
import { Spinner } from './spinner';

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Disables the button and shows a spinner in front of its content. */
  loading?: boolean;
  /**
   * While loading, stay focusable (aria-disabled, clicks ignored) instead of disabled, so the
   * keyboard focus stays on a toggle pressed with Enter.
   */
  keepFocus?: boolean;
};

export function Button({
  variant,
  size,
  loading = false,
  disabled,
  className,
  children,
  type = 'button',
  keepFocus = false,
  onClick,
  ...props
}: ButtonProps) {
  const held = loading && keepFocus;
  return (
    <button
      type={type}
      className={buttonClasses({
        variant,
        size,
        className: cn(held && 'cursor-wait opacity-60', className),
      })}
      disabled={disabled || (loading && !keepFocus)}
      aria-disabled={held || undefined}
      aria-busy={loading || undefined}
      onClick={held ? (event) => event.preventDefault() : onClick}
      {...props}
    >
      {loading && <Spinner className="size-4" />}
      {children}
    </button>
  );
}
