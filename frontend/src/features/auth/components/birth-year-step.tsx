import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { Button } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api-client';

import { useDeleteClosedAccount, useGiveBirthYear } from '../api/birth-year';
import { UNDER_MINIMUM_AGE, YEAR_OF_BIRTH_REQUIRED } from '../api/register';
import { setSessionUser } from '../api/session-cache';
import { useClosedAccount } from '../closed-account';

import { applyFieldErrors } from './apply-field-errors';
import { BirthYearField } from './birth-year-field';

const birthYearSchema = z.object({
  birthYear: z.string().regex(/^[0-9]{4}$/, YEAR_OF_BIRTH_REQUIRED),
});
type BirthYearInput = z.infer<typeof birthYearSchema>;

/**
 * The one question an account from before years of birth were asked answers after signing in.
 * Under 13 the server closes the account; the step then says so and offers deleting it with
 * everything it holds at once.
 */
export function BirthYearStep() {
  const queryClient = useQueryClient();
  const give = useGiveBirthYear();
  const deletion = useDeleteClosedAccount();
  const { closed, setClosed } = useClosedAccount();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<BirthYearInput>({
    resolver: zodResolver(birthYearSchema),
    defaultValues: { birthYear: '' },
  });

  const onSubmit = handleSubmit(({ birthYear }) =>
    give.mutate(Number(birthYear), {
      onError: (error) => {
        if (error instanceof ApiError && error.code === UNDER_MINIMUM_AGE) {
          const token = error.body?.deletionToken;
          setClosed({
            message: error.message,
            token: typeof token === 'string' ? token : null,
            deleted: false,
          });
          return;
        }
        if (!applyFieldErrors(error, ['birthYear'], setError)) {
          setError('birthYear', {
            type: 'server',
            message: errorMessage(error, 'Could not save your year of birth'),
          });
        }
      },
    }),
  );

  // Leaving the closed account's page: the session is already gone on the server.
  const leave = () => {
    setClosed(null);
    setSessionUser(queryClient, null);
  };

  if (closed) {
    return (
      <section aria-labelledby="closed-title" className="mx-auto flex max-w-md flex-col gap-4">
        <h1 id="closed-title" className="text-2xl font-bold">
          Your account is closed
        </h1>
        <p role="alert">{closed.message}</p>
        {closed.deleted ? (
          <p>Your account and everything it held are deleted.</p>
        ) : (
          <>
            <p>No one can see it and it receives nothing. You can delete it now.</p>
            {closed.token && (
              <Button
                variant="destructive"
                disabled={deletion.isPending}
                onClick={() =>
                  deletion.mutate(closed.token!, {
                    onSuccess: () => setClosed({ ...closed, deleted: true }),
                  })
                }
              >
                Delete my account and its data
              </Button>
            )}
          </>
        )}
        <Button variant="outline" onClick={leave}>
          Close
        </Button>
      </section>
    );
  }

  return (
    <section aria-labelledby="birth-year-title" className="mx-auto flex max-w-md flex-col gap-4">
      <h1 id="birth-year-title" className="text-2xl font-bold">
        One question before you go on
      </h1>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <BirthYearField
          id="birth-year-step"
          error={errors.birthYear?.message}
          registration={register('birthYear')}
        />
        <Button type="submit" disabled={give.isPending}>
          Continue
        </Button>
      </form>
    </section>
  );
}
