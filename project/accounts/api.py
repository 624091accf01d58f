from __future__ import annotations

from django.http import HttpRequest
from django.middleware.csrf import get_token
from ninja.responses import codes_4xx

from project.accounts import services
from project.accounts.schemas import CsrfOut, LoginIn, MeOut, RegisterIn
from project.common.auth import csrf_only, current_user
from project.common.router import Router
from project.common.schemas import ErrorOut

router = Router(tags=["auth"])


@router.get("/csrf", response=CsrfOut, auth=None, summary="Set the CSRF cookie for the SPA")
def csrf(request: HttpRequest) -> dict[str, str]:
    return {"csrf_token": get_token(request)}


@router.post(
    "/register", response={201: MeOut, codes_4xx: ErrorOut}, auth=csrf_only, summary="Create an account"
)
def register(request: HttpRequest, payload: RegisterIn) -> tuple[int, object]:
    user = services.user_register(request=request, **payload.dict())
    return 201, user


@router.post("/login", response={200: MeOut, codes_4xx: ErrorOut}, auth=csrf_only, summary="Sign in")
def login(request: HttpRequest, payload: LoginIn) -> object:
    return services.user_login(request=request, username=payload.username, password=payload.password)


@router.post("/logout", response={204: None, codes_4xx: ErrorOut}, auth=csrf_only, summary="Sign out")
def logout(request: HttpRequest) -> tuple[int, None]:
    services.user_logout(request=request)
    return 204, None


@router.get("/me", response={200: MeOut, codes_4xx: ErrorOut}, summary="The signed-in user")
def me(request: HttpRequest) -> object:
    return current_user(request)
