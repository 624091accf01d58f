from django.urls import path

from project.notify.views import unsubscribe

urlpatterns = [path("unsubscribe/<str:token>", unsubscribe, name="email-unsubscribe")]
