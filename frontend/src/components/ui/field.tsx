import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

import { fieldErrorId } from './field-error-id';
import { Label } from './label';

export type FieldProps = {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  /** The control; give it `id`, `aria-invalid` and `aria-describedby={fieldErrorId(id)}`. */
  children: ReactNode;
};

/** A form control with its label and its validation message. */
export function Field({ id, label, error, hint, className, children }: FieldProps) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && !error && <p className="text-xs text-muted-foreground">{hint}</p>}
      {error && (
        <p id={fieldErrorId(id)} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
