import type { UseFormRegisterReturn } from 'react-hook-form';

import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/input';

import { birthYears } from '../birth-years';

type BirthYearFieldProps = {
  id: string;
  error?: string;
  registration: UseFormRegisterReturn;
};

/**
 * The year of birth, asked neutrally: no year is selected until the member picks one, and
 * nothing around the question says which years an account needs.
 */
export function BirthYearField({ id, error, registration }: BirthYearFieldProps) {
  return (
    <Field id={id} label="Year of birth" error={error}>
      {(control) => (
        <NativeSelect autoComplete="bday-year" {...control} {...registration}>
          <option value="">Select a year</option>
          {birthYears().map((year) => (
            <option key={year} value={String(year)}>
              {year}
            </option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
}
