"""The pages: views and POST endpoints, forms, help, chat, profile, room options, rulings, the POST throttle, health."""
