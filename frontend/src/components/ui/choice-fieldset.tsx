export type Choice<T extends string> = { value: T; label: string };

type ChoiceFieldsetProps<T extends string> = {
  legend: string;
  name: string;
  choices: readonly Choice<T>[];
  value: T | null;
  onChange: (value: T) => void;
  className?: string;
};

/** One choice among a few, as labelled radio buttons in a fieldset. */
export function ChoiceFieldset<T extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
  className = 'flex flex-col gap-2',
}: ChoiceFieldsetProps<T>) {
  return (
    <fieldset className={className}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {choices.map((option) => (
        <label key={option.value} className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
