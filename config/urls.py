from django.contrib.auth import views as auth_views
from django.urls import include, path

from characters.views import accounts
from characters.views.methods import FORM_VIEW_METHODS

urlpatterns = [
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(http_method_names=FORM_VIEW_METHODS),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("language/", accounts.language_set, name="language_set"),
    path("", include("characters.urls")),
]

handler404 = "characters.views.errors.page_not_found"
