export const APP_NAME = 'ScoutVote';
export const SUPPORT_EMAIL = 'support@scoutvote.example';
export const WEBSITE_URL = 'https://scoutvote.example';
