"""Page models: the objects a template renders (a page's context, its rows and panels),
built from selectors, forms and the rules engine. Views bind a form, call a service and
render one of these; they sit between the views and the forms and services (the layers in
pyproject.toml)."""
