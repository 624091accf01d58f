// Written by `npm run gen:types` (scripts/gen-limits.mjs) from openapi.json: do not edit.
// Each request body's fields and the bounds the server checks on them.
export const LIMITS = {
  AthleteInviteIn: {
    username: { maxLength: 150 },
  },
  AvatarIn: {
    avatarURL: { maxLength: 2000 },
  },
  ClaimTransferIn: {
    username: { maxLength: 150 },
  },
  ClosedAccountDeleteIn: {
    deletionToken: { maxLength: 500 },
  },
  CoachVerificationIn: {
    evidenceUrl: { maxLength: 500 },
    organization: { minLength: 1, maxLength: 200 },
    roleTitle: { minLength: 1, maxLength: 100 },
    workEmail: { maxLength: 254 },
  },
  CommentIn: {
    content: { minLength: 1, maxLength: 1000 },
  },
  EmailConfirmIn: {
    token: { minLength: 1, maxLength: 200 },
  },
  EndorsementIn: {
    content: { minLength: 1, maxLength: 2000 },
    rating: { minimum: 1, maximum: 5 },
  },
  LoginIn: {
    code: { maxLength: 32 },
    password: { minLength: 1, maxLength: 256 },
    timeZone: { maxLength: 64 },
    username: { minLength: 1, maxLength: 150 },
  },
  NominationIn: {
    age: { minimum: 9, maximum: 50 },
    club: { minLength: 2, maxLength: 200 },
    graduationYear: { minimum: 2024, maximum: 2040 },
    name: { minLength: 2, maxLength: 200 },
    nationality: { minLength: 2, maxLength: 100 },
    position: { minLength: 2, maxLength: 100 },
    skills: { minLength: 1, maxLength: 5000 },
    videoLink: { maxLength: 500 },
  },
  PasswordChangeIn: {
    currentPassword: { maxLength: 256 },
    newPassword: { minLength: 6, maxLength: 256 },
  },
  PlayerUpdateIn: {
    age: { minimum: 9, maximum: 50 },
    club: { minLength: 2, maxLength: 200 },
    graduationYear: { minimum: 2024, maximum: 2040 },
    name: { minLength: 2, maxLength: 200 },
    nationality: { minLength: 2, maxLength: 100 },
    position: { minLength: 2, maxLength: 100 },
    skills: { maxLength: 5000 },
    videoLink: { maxLength: 500 },
  },
  PlayerUpdatePostIn: {
    imageURL: { maxLength: 2000 },
  },
  ProfileIn: {
    bio: { maxLength: 1000 },
    location: { maxLength: 200 },
    name: { minLength: 1, maxLength: 150 },
    phoneNumber: { maxLength: 40 },
  },
  RegisterIn: {
    email: { maxLength: 254 },
    name: { minLength: 1, maxLength: 150 },
    password: { minLength: 6, maxLength: 256 },
    referralCode: { maxLength: 16 },
    timeZone: { maxLength: 64 },
    username: { minLength: 3, maxLength: 150 },
  },
  ReportIn: {
    text: { maxLength: 2000 },
  },
  ReportResolveIn: {
    reason: { maxLength: 500 },
  },
  RestoreIn: {
    reason: { maxLength: 500 },
  },
  TakedownConfirmIn: {
    token: { minLength: 1, maxLength: 200 },
  },
  TakedownDecideIn: {
    reason: { maxLength: 500 },
  },
  TakedownIn: {
    contactEmail: { maxLength: 254 },
    details: { maxLength: 4000 },
  },
  TakedownStopIn: {
    token: { minLength: 1, maxLength: 200 },
  },
  TimeZoneIn: {
    timeZone: { maxLength: 64 },
  },
  TwoFactorCodeIn: {
    code: { minLength: 1, maxLength: 32 },
  },
  TwoFactorDisableIn: {
    code: { minLength: 1, maxLength: 32 },
    currentPassword: { minLength: 1, maxLength: 256 },
  },
  VoteSelectionIn: {
    reason: { maxLength: 2000 },
  },
} as const;

// Each operation's query parameters and their bounds.
export const QUERY_LIMITS = {
  'GET /api/clubs': {
    q: { maxLength: 200 },
  },
  'GET /api/nominations': {
    q: { maxLength: 200 },
  },
} as const;
