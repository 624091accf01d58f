import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

import { Label } from './label';

/** What a field's control carries: its id, and while the field is invalid, its message. */
export type FieldControl = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

export type FieldProps = {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  /**
   * The control. A field that can be invalid renders it from `control` (spread it on the
   * input); a field that cannot may give the control `id` itself.
   */
  children: ReactNode | ((control: FieldControl) => ReactNode);
};

/** A form control with its label and its validation message, tied together by ids. */
export function Field({ id, label, error, hint, className, children }: FieldProps) {
  const errorId = `${id}-error`;
  const control: FieldControl = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  };
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {typeof children === 'function' ? children(control) : children}
      {hint && !error && <p className="text-xs text-muted-foreground">{hint}</p>}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
