import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { TextField } from './text-field.tsx';

interface Values {
  name: string;
}

function NameForm({ onValid }: { onValid: (values: Values) => void }) {
  const form = useForm<Values>({ defaultValues: { name: '' } });
  return (
    <form onSubmit={form.handleSubmit(onValid)}>
      <TextField
        label="Name"
        hint="As your team will see it"
        error={form.formState.errors.name?.message}
        {...form.register('name', { required: 'Give a name' })}
      />
      <button type="submit">Save</button>
      <button type="button" onClick={() => form.reset({ name: 'Grace' })}>
        Reset
      </button>
    </form>
  );
}

describe('text field', () => {
  // react-hook-form reaches the input through the ref that register() hands the field: it focuses the first
  // field in error and writes reset values into it. The field takes that ref as a prop and gives it to its
  // input; a ref that went nowhere would leave the focus on Save and the reset value unwritten.
  it("hands register()'s ref to its input: focus on error, reset values written in", async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    render(<NameForm onValid={onValid} />);
    const input = screen.getByLabelText('Name');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give a name')).toBeInTheDocument();
    expect(input).toHaveFocus();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('As your team will see it Give a name');
    expect(onValid).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(input).toHaveValue('Grace');
    await user.clear(input);
    await user.type(input, 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onValid).toHaveBeenCalledWith({ name: 'Ada' }, expect.anything());
  });
});
