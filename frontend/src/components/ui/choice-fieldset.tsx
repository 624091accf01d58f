import type { Ref } from 'react';

export type Choice<T extends string> = { value: T; label: string };

type ChoiceFieldsetProps<T extends string> = {
  legend: string;
  name: string;
  choices: readonly Choice<T>[];
  value: T | null;
  onChange: (value: T) => void;
  /** Shown under the choices, and what the group is described by while shown. */
  error?: string;
  /** The first radio button, for a form library to focus when the group is invalid. */
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
};

/** One choice among a few, as labelled radio buttons in a fieldset. */
export function ChoiceFieldset<T extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
  error,
  inputRef,
  className = 'flex flex-col gap-2',
}: ChoiceFieldsetProps<T>) {
  const errorId = `${name}-error`;
  return (
    <fieldset className={className} aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {choices.map((option, index) => (
        <label key={option.value} className="flex items-center gap-2 text-sm">
          <input
            ref={index === 0 ? inputRef : undefined}
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
