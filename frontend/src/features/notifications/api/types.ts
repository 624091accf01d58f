import type { components } from '@/lib/api/schema';

export type Notification = components['schemas']['NotificationOut'];
export type Notifications = components['schemas']['NotificationsOut'];
