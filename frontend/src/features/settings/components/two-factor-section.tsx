import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm, type UseFormSetError } from 'react-hook-form';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import {
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  useRecoveryCodesRenew,
  useTwoFactor,
  useTwoFactorConfirm,
  useTwoFactorDisable,
  useTwoFactorSetup,
  type TwoFactorCodeInput,
  type TwoFactorDisableInput,
} from '../api/two-factor';

import { SettingsSection } from './settings-section';

type Enrolment = { secret: string; otpauthUri: string; qrSvg: string };

/** Puts a failed call's message on its field (or in a toast when it names none). */
function showError<T extends Record<string, unknown>>(
  error: Error,
  setError: UseFormSetError<T>,
  fields: (keyof T & string)[],
) {
  const named = error instanceof ApiError ? (error.fields ?? {}) : {};
  const field = fields.find((name) => named[name]);
  if (field) {
    setError(field as never, { message: named[field] });
    return;
  }
  toast({ variant: 'destructive', description: errorMessage(error, 'Something went wrong') });
}

function CodeForm({
  id,
  label,
  submit,
  pending,
  onSubmit,
}: {
  id: string;
  label: string;
  submit: string;
  pending: boolean;
  onSubmit: (values: TwoFactorCodeInput, setError: UseFormSetError<TwoFactorCodeInput>) => void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<TwoFactorCodeInput>({
    resolver: zodResolver(twoFactorCodeSchema),
    defaultValues: { code: '' },
  });
  return (
    <form
      onSubmit={handleSubmit((values) => onSubmit(values, setError))}
      noValidate
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
    >
      <Field id={id} label={label} error={errors.code?.message} className="sm:w-56">
        {(control) => (
          <Input
            autoComplete="one-time-code"
            inputMode="numeric"
            autoCapitalize="none"
            {...control}
            {...register('code')}
          />
        )}
      </Field>
      <Button type="submit" loading={pending}>
        {submit}
      </Button>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const copy = () =>
    void navigator.clipboard
      .writeText(codes.join('\n'))
      .then(() => toast({ title: 'Recovery codes copied' }))
      .catch(() => toast({ variant: 'destructive', description: 'Could not copy the codes' }));
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone.
        They will not be shown again.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-lg bg-muted p-3 font-mono text-sm"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={copy}>
          Copy codes
        </Button>
        <Button onClick={onDone}>I saved them</Button>
      </div>
    </div>
  );
}

function Enrol({ enrolment, onDone }: { enrolment: Enrolment; onDone: (codes: string[]) => void }) {
  const confirm = useTwoFactorConfirm();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        Scan this QR code with an authenticator app (such as Google Authenticator, 1Password or
        Aegis), then enter the 6-digit code it shows.
      </p>
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt="QR code for your authenticator app"
        width={200}
        height={200}
        className="size-50 rounded-lg bg-white p-2"
      />
      <p className="text-sm text-muted-foreground">
        Can&apos;t scan it? Enter this key instead:{' '}
        <code className="font-mono break-all text-foreground">{enrolment.secret}</code>
      </p>
      <CodeForm
        id="two-factor-confirm-code"
        label="Code from the app"
        submit="Turn on"
        pending={confirm.isPending}
        onSubmit={(values, setError) =>
          confirm.mutate(values, {
            onSuccess: (answer) => onDone(answer.recoveryCodes),
            onError: (error) => showError(error, setError, ['code']),
          })
        }
      />
    </div>
  );
}

function TurnOff() {
  const disable = useTwoFactorDisable();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<TwoFactorDisableInput>({
    resolver: zodResolver(twoFactorDisableSchema),
    defaultValues: { currentPassword: '', code: '' },
  });
  const onSubmit = handleSubmit((values) =>
    disable.mutate(values, {
      onSuccess: () => reset(),
      onError: (error) => showError(error, setError, ['currentPassword', 'code']),
    }),
  );
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:grid-cols-[1fr_1fr_auto]">
      <Field
        id="two-factor-off-password"
        label="Current Password"
        error={errors.currentPassword?.message}
      >
        {(control) => (
          <Input
            type="password"
            autoComplete="current-password"
            {...control}
            {...register('currentPassword')}
          />
        )}
      </Field>
      <Field id="two-factor-off-code" label="Code" error={errors.code?.message}>
        {(control) => <Input autoComplete="one-time-code" {...control} {...register('code')} />}
      </Field>
      <Button type="submit" variant="outline" loading={disable.isPending} className="sm:mt-6">
        Turn off
      </Button>
    </form>
  );
}

/**
 * Two-factor sign-in: enrol an authenticator app, see and renew recovery codes, turn it off.
 * `onEnrolled` runs once it is on: the session may now act as an admin (its `actsAsAdmin`).
 */
export function TwoFactorSection({ onEnrolled }: { onEnrolled?: () => void }) {
  const status = useTwoFactor();
  const setup = useTwoFactorSetup();
  const renew = useRecoveryCodesRenew();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  let body;
  if (codes) {
    body = <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  } else if (enrolment) {
    body = (
      <Enrol
        enrolment={enrolment}
        onDone={(fresh) => {
          setEnrolment(null);
          setCodes(fresh);
          onEnrolled?.();
        }}
      />
    );
  } else if (status.isPending) {
    body = <Skeleton className="h-16 rounded-lg" aria-label="Loading two-factor sign-in" />;
  } else if (status.isError) {
    body = <p className="text-sm text-destructive">{status.error.message}</p>;
  } else if (!status.data.enabled) {
    body = (
      <div className="flex flex-col items-start gap-3">
        {status.data.required ? (
          <p className="text-sm font-semibold">Admins must turn this on to use the admin tools.</p>
        ) : null}
        <Button
          loading={setup.isPending}
          onClick={() => setup.mutate(undefined, { onSuccess: setEnrolment })}
        >
          Set up two-factor sign-in
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="flex flex-col gap-5">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Badge variant="green">On</Badge>
          {status.data.recoveryCodesLeft === 1
            ? '1 recovery code left'
            : `${status.data.recoveryCodesLeft} recovery codes left`}
        </p>
        <CodeForm
          id="two-factor-renew-code"
          label="Code, for new recovery codes"
          submit="New recovery codes"
          pending={renew.isPending}
          onSubmit={(values, setError) =>
            renew.mutate(values, {
              onSuccess: (answer) => setCodes(answer.recoveryCodes),
              onError: (error) => showError(error, setError, ['code']),
            })
          }
        />
        {status.data.required ? (
          <p className="text-sm text-muted-foreground">Required for admins.</p>
        ) : (
          <TurnOff />
        )}
      </div>
    );
  }

  return (
    <SettingsSection
      id="two-factor"
      icon={ShieldCheck}
      title="Two-Factor Sign-In"
      description="A code from an authenticator app on your phone, asked after your password."
    >
      {body}
    </SettingsSection>
  );
}
