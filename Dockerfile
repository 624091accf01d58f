# The production image: the SPA built with Node, served with the API by daphne.
FROM node:20-bookworm-slim AS spa
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
# The paths the server answers itself, which the service worker lets through (sw/sw.ts).
COPY project/server_paths.json ../project/server_paths.json
RUN npm run build

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_ENV=production
WORKDIR /app
# FriBiDi: Pillow's Raqm layout (bundled in its wheel) loads it to draw right-to-left names on
# the share cards. Noto CJK and Noto Color Emoji: the cards' fallback fonts for the names and
# emoji DejaVu Sans lacks (SHARE_CARD_FALLBACK_FONTS).
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    fonts-noto-cjk fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/*
COPY requirements/base.lock requirements/base.lock
RUN pip install --no-cache-dir --require-hashes -r requirements/base.lock
COPY pyproject.toml ./
COPY project/ project/
COPY realtime/ realtime/
COPY manage.py ./
RUN pip install --no-cache-dir --no-deps .
COPY --from=spa /app/frontend/dist frontend/dist
RUN DJANGO_SECRET_KEY=build-only-secret-key-that-is-long-enough-for-collectstatic-0123456789 \
    STATIC_ROOT=/app/staticfiles python manage.py collectstatic --noinput
RUN useradd --create-home app && mkdir -p /app/media && chown app /app/media
USER app
EXPOSE 8000
# No --proxy-headers: daphne would take the left-most (client-written) X-Forwarded-For hop.
# The app reads forwarded addresses itself, from TRUSTED_PROXIES only.
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "project.asgi:application"]
