import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Field } from './field';
import { Input } from './input';

describe('Field', () => {
  it('labels its control and, while valid, shows the hint and nothing invalid', () => {
    render(
      <Field id="age" label="Age" hint="Leave blank if you give a graduation year.">
        {(control) => <Input {...control} />}
      </Field>,
    );
    const input = screen.getByLabelText('Age');
    expect(input).toHaveAttribute('id', 'age');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
    expect(screen.getByText('Leave blank if you give a graduation year.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('marks its control invalid and describes it by the message, in place of the hint', () => {
    render(
      <Field id="age" label="Age" error="Age must be at least 10" hint="Leave blank.">
        {(control) => <Input {...control} />}
      </Field>,
    );
    const input = screen.getByLabelText('Age');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Age must be at least 10');
    expect(screen.getByRole('alert')).toHaveTextContent('Age must be at least 10');
    expect(screen.queryByText('Leave blank.')).not.toBeInTheDocument();
  });

  it('labels a control that names itself', () => {
    render(
      <Field id="settings-email" label="Email">
        <Input id="settings-email" value="a@b.c" readOnly />
      </Field>,
    );
    expect(screen.getByLabelText('Email')).toHaveValue('a@b.c');
  });
});
