from django.urls import path

from . import views

urlpatterns = [
    path("", views.notice_list, name="notices"),
    path("read", views.notice_read, name="notices_read"),
    path("email", views.notice_email, name="notices_email"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="notice_unsubscribe"),
    path("push/subscribe", views.push_subscribe, name="notices_push_subscribe"),
    path("sw.js", views.service_worker, name="notices_sw"),
]
