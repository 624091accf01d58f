import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type ReportInput = Schemas['ReportIn'];
export type ReportReason = ReportInput['reason'];
export type TakedownInput = Schemas['TakedownIn'];
export type TakedownReceived = Schemas['TakedownReceivedOut'];
export type TakedownConfirmInput = Schemas['TakedownConfirmIn'];
export type TakedownConfirmed = Schemas['TakedownConfirmedOut'];
export type TakedownStopInput = Schemas['TakedownStopIn'];

/** The reasons a member picks from, in the words of the issue. */
export const REPORT_REASONS: { value: ReportReason; label: string }[] = [
  { value: 'not_real', label: 'Not a real athlete' },
  { value: 'wrong_information', label: 'Wrong information' },
  { value: 'inappropriate', label: 'Inappropriate content' },
  { value: 'privacy', label: 'Privacy' },
  { value: 'other', label: 'Other' },
];
