import { Mail } from 'lucide-react';
import { Link } from 'react-router';

import { Brand } from '@/components/brand';
import { APP_NAME, SUPPORT_EMAIL } from '@/lib/site';
import { SPORTS } from '@/stores/sport';

const resources = [
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/help', label: 'Help Center' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
  { to: '/takedown', label: "Remove your child's profile" },
];

const legal = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/sports', label: 'Sports' },
];

const social = [
  { href: 'https://x.com/scoutvote', label: 'X' },
  { href: 'https://www.instagram.com/scoutvote', label: 'Instagram' },
  { href: 'https://www.facebook.com/scoutvote', label: 'Facebook' },
  { href: 'https://www.youtube.com/@scoutvote', label: 'YouTube' },
];

const linkClasses = 'text-sm text-muted-foreground hover:text-foreground';

export function Footer() {
  return (
    <footer className="mt-16 border-t border-border bg-surface">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4 lg:px-8">
        <div className="flex flex-col gap-3">
          <Brand />
          <p className="text-sm text-muted-foreground">
            Community-powered discovery of young athletes. Nominate, vote and climb the
            leaderboards.
          </p>
          <ul aria-label="Sports" className="flex flex-wrap gap-2">
            {SPORTS.map(({ value, label, icon: Icon }) => (
              <li
                key={value}
                className="inline-flex items-center gap-1 rounded-full bg-muted px-2.5 py-1 text-xs font-medium"
              >
                <Icon className="size-3.5 text-primary" aria-hidden="true" />
                {label}
              </li>
            ))}
          </ul>
        </div>

        <nav aria-label="Resources">
          <h2 className="mb-3 text-sm font-semibold">Resources</h2>
          <ul className="flex flex-col gap-2">
            {resources.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClasses}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <nav aria-label="Legal">
          <h2 className="mb-3 text-sm font-semibold">Legal</h2>
          <ul className="flex flex-col gap-2">
            {legal.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClasses}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <h2 className="mb-3 text-sm font-semibold">Get in touch</h2>
          <a
            href={`mailto:${SUPPORT_EMAIL}`}
            className={`${linkClasses} inline-flex items-center gap-2`}
          >
            <Mail className="size-4" aria-hidden="true" />
            {SUPPORT_EMAIL}
          </a>
          <ul aria-label="Social media" className="mt-4 flex flex-wrap gap-2">
            {social.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex rounded-full border border-border px-3 py-1 text-xs font-medium text-muted-foreground hover:bg-muted hover:text-foreground"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex w-full max-w-6xl flex-col gap-1 px-4 py-5 text-xs text-muted-foreground sm:flex-row sm:justify-between sm:px-6 lg:px-8">
          <p>
            © {new Date().getFullYear()} {APP_NAME}. All rights reserved. Free for every member of
            the community.
          </p>
          <p>Self-hosted on Django and Channels; votes and results update live.</p>
        </div>
      </div>
    </footer>
  );
}
